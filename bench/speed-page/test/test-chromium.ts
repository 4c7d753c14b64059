import { chromium } from '@playwright/test';
import { chromiumArgs } from '../../lib/chromium.mjs';

/** Debian's Chromium (or CHROMIUM_PATH) with the sandbox's flags, or with `args` in their place, for the lab's tests. */
export const launchChromium = (args: readonly string[] = chromiumArgs) =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...args] });

export type TestBrowser = Awaited<ReturnType<typeof launchChromium>>;
