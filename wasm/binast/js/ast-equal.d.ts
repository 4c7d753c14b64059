export declare function firstDifference(a: unknown, b: unknown, path?: string): string | null;
