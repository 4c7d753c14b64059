import type { Program } from 'acorn';

/** Why a module would run differently from the page's base URL (relative imports, import.meta), or null. */
export declare function pageRelativeReason(program: Program): string | null;
