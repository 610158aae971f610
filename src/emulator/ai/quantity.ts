/**
 * Quantities next to product mentions: "2 Oxford shirts", "two shirts", "a belt",
 * "เสื้อเชิ้ต 2 ตัว", "shirt x2"; and bare ones for follow-ups ("I'll take 2").
 */
import { parseQuantityToken, QUANTITY_WORD } from './language.js';

/** Up to two adjectives between the number and the product ("2 blue Oxford shirts"). */
const BEFORE = new RegExp(
  `(?:^|[^a-z0-9\\u0E00-\\u0E7F])(${QUANTITY_WORD})\\s*(?:x\\s*)?(?:(?:pairs?|pieces?|pcs|units?|of)\\s+)*(?:[a-z-]+\\s+){0,2}$`,
  'i',
);
/** Thai style: product then number then classifier ("เสื้อ 2 ตัว"); or "x2", "× 3". */
const AFTER = new RegExp(
  `^\\s*(?:[x×*]\\s*)?(${QUANTITY_WORD})(?:\\s*(?:ตัว|ชิ้น|คู่|ใบ|เส้น|ผืน|อัน|pcs|pieces?|units?)|\\s*$|[\\s,.!?])`,
  'i',
);

/** The quantity written just before or after a mention at [start, end) of `text`, if any. */
export function quantityAround(text: string, start: number, end: number): number | undefined {
  const before = text.slice(Math.max(0, start - 40), start);
  const b = BEFORE.exec(before);
  if (b?.[1]) {
    const n = parseQuantityToken(b[1]);
    if (n !== undefined) return n;
  }
  const after = text.slice(end, end + 20);
  const a = AFTER.exec(after);
  if (a?.[1] && /^\s*[x×*]|ตัว|ชิ้น|คู่|ใบ|เส้น|ผืน|อัน|pcs|piece|unit/i.test(a[0])) {
    return parseQuantityToken(a[1]);
  }
  return undefined;
}

/** "take 2", "I'll have two", "เอา 2 ตัว", "2 please": a quantity with no product named. */
const BARE = new RegExp(
  `(?:take|have|want|order|buy|get|need|เอา|ขอ|สั่ง|ซื้อ)\\s*(${QUANTITY_WORD})(?![\\d/])|^\\s*(${QUANTITY_WORD})\\s*(?:please|pcs|ตัว|ชิ้น|คู่|ใบ|เส้น|ผืน)?\\s*[.!]?\\s*$`,
  'i',
);

export function bareQuantity(text: string): number | undefined {
  const m = BARE.exec(text);
  const token = m?.[1] ?? m?.[2];
  return token ? parseQuantityToken(token) : undefined;
}
