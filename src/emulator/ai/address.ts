/**
 * Address extraction (spec: addressParsing: street_address, subdistrict, district, city,
 * postal_code, country; empty strings when nothing was found). Thai addresses: 5-digit
 * postal codes, city names in English or Thai, แขวง/ตำบล (subdistrict), เขต/อำเภอ (district).
 */
import type { AddressParsing } from '../../contract/index.js';
import type { Language } from './language.js';

interface City {
  en: string;
  th: string;
  aliases: string[];
  /** First two digits of its postal codes, for inferring the city from a code alone. */
  postalPrefix?: string;
}

const CITIES: City[] = [
  {
    en: 'Bangkok',
    th: 'กรุงเทพมหานคร',
    aliases: ['bangkok', 'bkk', 'krung thep', 'กรุงเทพมหานคร', 'กรุงเทพฯ', 'กรุงเทพ', 'กทม'],
    postalPrefix: '10',
  },
  { en: 'Nonthaburi', th: 'นนทบุรี', aliases: ['nonthaburi', 'นนทบุรี'], postalPrefix: '11' },
  { en: 'Chiang Mai', th: 'เชียงใหม่', aliases: ['chiang mai', 'chiangmai', 'เชียงใหม่'], postalPrefix: '50' },
  { en: 'Chiang Rai', th: 'เชียงราย', aliases: ['chiang rai', 'เชียงราย'], postalPrefix: '57' },
  { en: 'Phuket', th: 'ภูเก็ต', aliases: ['phuket', 'ภูเก็ต'], postalPrefix: '83' },
  { en: 'Khon Kaen', th: 'ขอนแก่น', aliases: ['khon kaen', 'ขอนแก่น'], postalPrefix: '40' },
  { en: 'Chon Buri', th: 'ชลบุรี', aliases: ['chon buri', 'chonburi', 'pattaya', 'ชลบุรี', 'พัทยา'], postalPrefix: '20' },
  { en: 'Songkhla', th: 'สงขลา', aliases: ['songkhla', 'hat yai', 'สงขลา', 'หาดใหญ่'], postalPrefix: '90' },
  {
    en: 'Nakhon Ratchasima',
    th: 'นครราชสีมา',
    aliases: ['nakhon ratchasima', 'korat', 'นครราชสีมา', 'โคราช'],
    postalPrefix: '30',
  },
  {
    en: 'Surat Thani',
    th: 'สุราษฎร์ธานี',
    aliases: ['surat thani', 'koh samui', 'สุราษฎร์ธานี', 'เกาะสมุย'],
    postalPrefix: '84',
  },
];

const ALIASES = CITIES.flatMap((city) => city.aliases.map((alias) => ({ alias, city }))).sort(
  (a, b) => b.alias.length - a.alias.length,
);

const POSTAL = /(?<![\d/+-])([1-9]\d{4})(?![\d/-])/;
const STREET_WORD =
  /\b(?:road|rd\.?|street|st\.?|soi|lane|ln\.?|avenue|ave\.?|alley|moo|village|building|bldg\.?|condo|tower)(?![a-z])|ถนน|ถ\.|ซอย|ซ\.|หมู่|อาคาร|คอนโด|หมู่บ้าน/i;
const HOUSE_NUMBER = /(?<![\d/])\d{1,5}(?:\/\d{1,4})?(?=\s*[A-Za-z\u0E00-\u0E7F])/g;
const STREET_END =
  /,|\n|\.(?:\s|$)|\s(?:and|please|thanks|thank)\b|แขวง|ตำบล|ต\.|เขต|อำเภอ|อ\.|จังหวัด|จ\.|\b(?:sub-?district|district|khet|khwaeng|amphoe|tambon)\b|\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)?\s+(?:sub-?)?district\b/i;
const SUBDISTRICT =
  /(?:แขวง|ตำบล|ต\.)\s*([\u0E00-\u0E7F]+)|\b(?:khwaeng|tambon)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)|\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s+sub-?district\b/i;
const DISTRICT =
  /(?:เขต|อำเภอ|อ\.)\s*([\u0E00-\u0E7F]+)|\b(?:khet|amphoe)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)|\b([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)(?<!sub-?)\s+district\b/i;

export const EMPTY_ADDRESS: AddressParsing = Object.freeze({
  street_address: '',
  subdistrict: '',
  district: '',
  city: '',
  postal_code: '',
  country: '',
}) as AddressParsing;

function findCity(text: string): { city: City; index: number } | undefined {
  const lower = text.toLowerCase();
  for (const { alias, city } of ALIASES) {
    const at = lower.indexOf(alias);
    if (at < 0) continue;
    const before = lower[at - 1];
    const after = lower[at + alias.length];
    if (/[a-z]/.test(alias) && ((before && /[a-z]/.test(before)) || (after && /[a-z]/.test(after)))) continue;
    return { city, index: at };
  }
  return undefined;
}

function findStreet(text: string, stops: number[]): string {
  const word = STREET_WORD.exec(text);
  if (!word) return '';
  let start = -1;
  HOUSE_NUMBER.lastIndex = 0;
  for (let m = HOUSE_NUMBER.exec(text), n = 0; m && m.index < word.index && n < 100; m = HOUSE_NUMBER.exec(text), n++) {
    if (word.index - m.index <= 60) start = m.index;
  }
  if (start < 0) return '';
  const afterWord = word.index + word[0].length;
  const rest = text.slice(afterWord);
  const stop = STREET_END.exec(rest);
  let end = stop ? afterWord + stop.index : text.length;
  for (const s of stops) if (s > afterWord && s < end) end = s;
  return text
    .slice(start, end)
    .replace(/[\s,]+$/, '')
    .trim();
}

function pick(m: RegExpExecArray | null): string {
  return (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim();
}

/** Extracts address parts from one message; every field is "" when not found. */
export function extractAddress(text: string, language: Language): AddressParsing {
  const postal = POSTAL.exec(text);
  const named = findCity(text);
  const stops: number[] = [];
  if (postal) stops.push(postal.index);
  if (named) stops.push(named.index);
  const street_address = findStreet(text, stops);
  const subdistrict = pick(SUBDISTRICT.exec(text));
  const district = pick(DISTRICT.exec(text));
  const postal_code = postal?.[1] ?? '';
  const city =
    named?.city ?? (postal_code ? CITIES.find((c) => c.postalPrefix === postal_code.slice(0, 2)) : undefined);
  const cityName = city ? (language === 'th' ? city.th : city.en) : '';
  const found = Boolean(street_address || subdistrict || district || cityName || postal_code);
  if (!found) return { ...EMPTY_ADDRESS };
  return {
    street_address,
    subdistrict,
    district,
    city: cityName,
    postal_code,
    country: language === 'th' ? 'ประเทศไทย' : 'Thailand',
  };
}

/** True when any address field holds something. */
export function hasAddress(a: AddressParsing): boolean {
  return Boolean(a.street_address || a.subdistrict || a.district || a.city || a.postal_code);
}

/** "99 Sukhumvit Rd, Bangkok 10110" for the answer text. */
export function formatAddress(a: AddressParsing): string {
  return [a.street_address, a.subdistrict, a.district, [a.city, a.postal_code].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
}
