import type { Program } from 'acorn';

/** Why a module would run differently from the page's base URL (relative imports, import.meta), or null. */
export declare function pageRelativeReason(program: Program): string | null;

/** Throws for a module that `pageRelativeReason` names a reason for; scripts always pass. */
export declare function refusePageRelative(program: Program, sourceType: 'script' | 'module'): void;
