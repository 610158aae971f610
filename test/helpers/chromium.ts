/**
 * Headless Chromium for the tests that look at report.html as a user does: Debian's
 * /usr/bin/chromium (or DROIDCHECK_CHROMIUM), driven by playwright-core, which downloads no
 * browser of its own. A test file skips its browser tests when Chromium is missing and says so,
 * except under .ci/run (DROIDCHECK_REQUIRE_TOOLS=1), where a missing Chromium fails them instead.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.DROIDCHECK_CHROMIUM ?? '/usr/bin/chromium';

/** Whether `file`'s browser tests run; when not, one warning naming the file and the fix. */
export function chromiumFor(file: string): boolean {
  const has = existsSync(CHROMIUM) || process.env.DROIDCHECK_REQUIRE_TOOLS === '1';
  if (!has) console.warn(`${file}: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does)`);
  return has;
}

/**
 * A headless Chromium that makes no request of its own (no QUIC, no background networking, no
 * component updates, no sync): a page's network requests are all the page's.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
