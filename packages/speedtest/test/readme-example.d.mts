export function readmeExample(): string;
/** The diagnostics, each `<file>: <message>`; empty when the code type-checks. */
export function typeCheckAsApp(code: string, compilerOptions: Record<string, unknown>): string[];
