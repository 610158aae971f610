/**
 * The console summary wraps every line at 100 columns (report/console.ts), each continuation
 * indented 4 more than the line it continues. `unwrapped(text)` joins the continuations back,
 * so a test can look for a sentence wherever the width broke it.
 */
export function unwrapped(text: string): string {
  const out: string[] = [];
  let base = -1;
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    if (out.length > 0 && base >= 0 && line.trim() !== '' && indent === base + 4) {
      out[out.length - 1] += ` ${line.trimStart()}`;
      continue;
    }
    out.push(line);
    base = indent;
  }
  return out.join('\n');
}
