export interface CorpusFile {
  name: string;
  path: string;
  demo: boolean;
}
export declare const libraries: CorpusFile[];
export declare const test262PassDir: string;
