export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}
export declare function run(argv: string[], io: Io): number;
