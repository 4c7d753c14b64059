// The two device and network profiles of the Speed Page. Rates are line rates per direction (tbf on the lab's veth);
// RTT is added by rtt.mjs; CPU slowdown is CDP's Emulation.setCPUThrottlingRate.

/** @typedef {{ name: string, label: string, viewport: { width: number, height: number }, deviceScaleFactor: number,
 *   isMobile: boolean, downMbit: number, upMbit: number, rttMs: number, cpuSlowdown: number, thumbWidthPx: number }} Profile */

/** @type {Record<string, Profile>} */
export const profiles = {
  desktop: {
    name: 'desktop',
    label: 'Desktop (1366×768, 50/10 Mbit/s, 40 ms RTT)',
    viewport: { width: 1366, height: 768 },
    deviceScaleFactor: 1,
    isMobile: false,
    downMbit: 50,
    upMbit: 10,
    rttMs: 40,
    cpuSlowdown: 1,
    thumbWidthPx: 160,
  },
  mobile: {
    name: 'mobile',
    label: 'Mobile (390×844 @3x, 1.6/0.75 Mbit/s, 150 ms RTT, 4× CPU slowdown)',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    downMbit: 1.6,
    upMbit: 0.75,
    rttMs: 150,
    cpuSlowdown: 4,
    thumbWidthPx: 72,
  },
};

/**
 * The User-Agent a profile's visitor sends, for the Chromium that loads the page (`browser.version()`, e.g.
 * "156.0.7444.59"), in Chrome's reduced form: a phone's (Android, "Mobile") for a mobile profile, else desktop
 * Chrome's. Without it every profile sent headless Chromium's own ("X11; Linux x86_64 … HeadlessChrome"): a site that
 * picks its markup or image sizes on the server by User-Agent or by the Sec-CH-UA-Mobile hint (Playwright derives
 * the hints from this string and `isMobile`) served the phone its desktop page, and bot defences that turn away
 * "HeadlessChrome" turned away the lab.
 * @param {{ isMobile: boolean }} profile @param {string} browserVersion
 */
export function userAgentOf(profile, browserVersion) {
  const chrome = `Chrome/${browserVersion.split('.')[0]}.0.0.0`;
  return profile.isMobile
    ? `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Mobile Safari/537.36`
    : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${chrome} Safari/537.36`;
}
