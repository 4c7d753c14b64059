// Types of chromium.mjs, so TypeScript files (e2e/playwright.config.ts) can share the one list of flags.

/** Flags for Debian Chromium in this sandbox (see chromium.mjs). */
export declare const chromiumArgs: readonly string[];
