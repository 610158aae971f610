/** Webhook bodies arrive as raw strings (the receiver parses them itself, to count what fails). */

/** The body as a JSON object, or undefined (not a string, empty, not JSON, an array, a scalar). */
export function parseObject(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return undefined;
  try {
    const body: unknown = JSON.parse(raw);
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
