/**
 * The Node.js lines droidcheck supports (leaf module: main.ts reads it before the program loads).
 * package.json's engines say >= 22.12; npm only warns at install, so the CLI says it too, once and
 * without changing the verdict (an end-of-life Node still runs the suite, but nobody patches it).
 */

/** The oldest supported Node.js, [major, minor]. */
const OLDEST_NODE: readonly [number, number] = [22, 12];

/**
 * The stderr line for an unsupported Node.js `version` (`process.version`, e.g. `v20.20.2`), or
 * undefined for a supported one. The line fits 100 columns, as every console line does.
 */
export function unsupportedNodeLine(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [oldMajor, oldMinor] = OLDEST_NODE;
  if (major > oldMajor || (major === oldMajor && minor >= oldMinor)) return undefined;
  return `droidcheck: unsupported Node.js ${version}: use ${oldMajor}.${oldMinor} or newer (22, 24, 26)`;
}
