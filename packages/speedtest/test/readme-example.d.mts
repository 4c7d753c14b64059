export function readmeExample(): string;
/** The diagnostics, each `<file>: <message>`; empty when the code type-checks. */
export function typeCheckAsApp(code: string, compilerOptions: Record<string, unknown>): string[];
/** Runs the example with its imports bound from `packageExports` and its console.log going to `log`. */
export function runExample(
  code: string,
  packageExports: Record<string, unknown>,
  log: (...values: unknown[]) => void,
): Promise<void>;
