/** One value in a line of a report (console, JUnit, HTML): leaf of report/, so the renderers share it without importing each other. */

/** A value for one line: JSON, cut to `max` characters. */
export function formatValue(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
