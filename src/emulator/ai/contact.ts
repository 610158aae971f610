/**
 * Contact extraction (spec: customerInsight.contact_info {name, phone, email}).
 * Phones are Thai numbers normalised to local digits ("+66 81 234 5678" => "0812345678").
 */

export interface ContactInfo {
  name: string;
  phone: string;
  email: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PHONE = /(?<![\d/])(\+66|0)[\s-]?(\d{1,2})[\s-]?(\d{3})[\s-]?(\d{3,4})(?![\d/])/;
const NAME_EN =
  /\b(?:my name is|my name's|name:|call me|this is)\s+([A-Za-z][A-Za-z'’-]*(?:\s+[A-Za-z][A-Za-z'’-]*){0,2})/i;
const NAME_TH = /(?:ชื่อว่า|ชื่อ)\s*(?:คุณ|นาย|นางสาว|นาง|น\.ส\.)?\s*([\u0E00-\u0E7F]+(?:[ \t]+[\u0E00-\u0E7F]+)?)/;
const STOP_EN = new Set([
  'and',
  'my',
  'i',
  "i'm",
  'im',
  'please',
  'phone',
  'email',
  'e-mail',
  'from',
  'here',
  'the',
  'number',
  'mobile',
  'call',
  'you',
  'can',
  'at',
  'with',
  'in',
  'to',
  'is',
  'by',
  'on',
  'for',
  'speaking',
]);
const PARTICLES_TH = /(?:ครับผม|ครับ|ค่ะ|คะ|นะคะ|นะครับ|นะ|จ้า|จ้ะ)$/;
const STOP_TH = /^(?:เบอร์|โทร|อีเมล|อีเมล์|ที่อยู่|ส่ง|ครับ|ค่ะ|คะ|นะ)/;

function nameEn(text: string): string {
  const m = NAME_EN.exec(text);
  if (!m?.[1]) return '';
  const words: string[] = [];
  for (const w of m[1].split(/\s+/)) {
    if (STOP_EN.has(w.toLowerCase())) break;
    words.push(w);
  }
  // "this is" only counts for a capitalised name ("This is Anna").
  if (/^this is/i.test(m[0]) && !/^[A-Z]/.test(words[0] ?? '')) return '';
  return words.join(' ');
}

function nameTh(text: string): string {
  const m = NAME_TH.exec(text);
  if (!m?.[1]) return '';
  const words: string[] = [];
  for (const raw of m[1].split(/\s+/)) {
    if (STOP_TH.test(raw)) break;
    const w = raw.replace(PARTICLES_TH, '');
    if (w) words.push(w);
    if (w !== raw) break;
  }
  return words.join(' ');
}

/** Name, phone and email found in one message; "" for each one not found. */
export function extractContact(text: string): ContactInfo {
  const email = EMAIL.exec(text)?.[0] ?? '';
  const p = PHONE.exec(text);
  const phone = p ? `0${p[2]}${p[3]}${p[4]}` : '';
  const name = nameEn(text) || nameTh(text);
  return { name, phone, email };
}

/** Later turns override earlier ones field by field. */
export function mergeContacts(items: ContactInfo[]): ContactInfo {
  const out: ContactInfo = { name: '', phone: '', email: '' };
  for (const c of items) {
    if (c.name) out.name = c.name;
    if (c.phone) out.phone = c.phone;
    if (c.email) out.email = c.email;
  }
  return out;
}

export function hasContact(c: ContactInfo): boolean {
  return Boolean(c.name || c.phone || c.email);
}
