/**
 * The rule engine's built-in detectors (English and Thai keyword rules). `detectIntents`
 * returns the detectors that fire, in priority order; the first is the main one (its sentence
 * is `customerInsight.user_intent`). The intent *names* in the payload are the droid's own:
 * the profile maps detectors to intents (profile `intents`, see intent-config.ts), as a droid's
 * owner configures intents on the service (docs tuning/add-intent.mdx).
 */

export const DETECTORS = [
  'complaint',
  'return_request',
  'purchase',
  'price_inquiry',
  'product_inquiry',
  'shipping',
  'payment',
  'contact_update',
  'greeting',
  'thanks',
  'general_inquiry',
] as const;
export type Detector = (typeof DETECTORS)[number];

/**
 * `customerInsight.user_intent` is a sentence (async docs page example: "Asking about product
 * pricing" for a price question). One per detector.
 */
export const USER_INTENT_SENTENCES: Record<Detector, string> = {
  complaint: 'Complaining about a problem with an order',
  return_request: 'Asking to return a product for a refund or an exchange',
  purchase: 'Wants to buy products',
  price_inquiry: 'Asking about product pricing',
  product_inquiry: 'Asking about product availability',
  shipping: 'Asking about delivery',
  payment: 'Asking about payment methods',
  contact_update: 'Sharing contact details',
  greeting: 'Greeting the shop',
  thanks: 'Thanking the shop',
  general_inquiry: 'Asking a general question',
};

const RULES: Record<Exclude<Detector, 'general_inquiry'>, RegExp> = {
  complaint:
    /\b(complain\w*|broken|damaged|defect\w*|terrible|awful|angry|disappoint\w*|unacceptable|wrong (?:item|size|colou?r)|not happy|torn|ripped|never arrived|still (?:not|hasn't|haven't)|worst)\b|ไม่พอใจ|ชำรุด|เสียหาย|แย่มาก|ผิดหวัง|ขาด|ยังไม่ได้รับ/i,
  return_request:
    /\b(return\w*|refund\w*|exchange|send (?:it|them) back|money back)\b|คืนสินค้า|คืนเงิน|ขอคืน|เปลี่ยนสินค้า|เปลี่ยนไซส์/i,
  purchase:
    /\b(buy|buying|purchase|order|ordering|i'?ll take|i will take|take (?:\d+|one|two|three|four|five|it|them)|add (?:\w+ )?to (?:my )?cart|i'?d like|i want|i need|checkout|check out)\b|ซื้อ|สั่ง|เอา|ใส่ตะกร้า|ต้องการ/i,
  price_inquiry:
    /\b(price|prices|how much|cost|costs|pricing|cheap\w*|discount|promotion|sale)\b|ราคา|เท่าไหร่|เท่าไร|กี่บาท|ลดราคา|โปรโมชั่น/i,
  product_inquiry:
    /\b(do you (?:sell|have|carry)|in stock|available|availability|sizes?|colou?rs?|what (?:products|do you sell)|catalog\w*|recommend\w*)\b|มี.*(?:ไหม|มั้ย|หรือเปล่า)|มีขาย|ไซส์|มีสี|สีอะไร/i,
  shipping:
    /\b(ship|shipping|shipped|deliver\w*|send (?:it|them|to)|track\w*|parcel|package|courier|arriv\w*|when will|where is my (?:order|parcel|package))\b|จัดส่ง|ส่งของ|ส่งที่|ส่งไป|ค่าส่ง|พัสดุ|เลขพัสดุ|ได้รับของ/i,
  payment:
    /\b(pay|paid|payment|credit card|bank transfer|transfer|promptpay|cash on delivery|cod|invoice|receipt)\b|จ่าย|ชำระ|โอน|พร้อมเพย์|เก็บเงินปลายทาง|ใบเสร็จ/i,
  contact_update:
    /\b(my name is|name:|call me|my (?:phone|number|mobile|email|e-mail)|phone(?: number)?:|email:|contact (?:me|details|info))\b|ชื่อ|เบอร์|โทร|อีเมล|ติดต่อ/i,
  greeting: /\b(hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings)\b|สวัสดี|หวัดดี|ดีครับ|ดีค่ะ/i,
  thanks: /\b(thanks|thank you|thx|cheers|appreciate)\b|ขอบคุณ|ขอบใจ/i,
};

/** Does `text` use a purchase word ("buy", "I want", "I'll take", ...), whatever it names? */
export const namesPurchase = (text: string): boolean => RULES.purchase.test(text);

export interface IntentSignals {
  /** A product is named in the message. */
  mentionsProduct: boolean;
  /** A contact detail (name, phone, email) was extracted from the message. */
  hasContact: boolean;
  /** A quantity with no product, following a conversation about a product ("I'll take 2"). */
  followUpPurchase: boolean;
}

/** Detectors that fire for one message, in priority order; never empty (falls back to general_inquiry). */
export function detectIntents(text: string, signals: IntentSignals): Detector[] {
  const found = new Set<Detector>();
  for (const intent of DETECTORS) {
    if (intent === 'general_inquiry') continue;
    if (RULES[intent].test(text)) found.add(intent);
  }
  // "I want / I need / เอา" only buys something when there is something to buy.
  if (
    found.has('purchase') &&
    !signals.mentionsProduct &&
    !signals.followUpPurchase &&
    !/\b(buy|purchase|checkout)\b|ซื้อ|สั่งซื้อ/i.test(text)
  ) {
    found.delete('purchase');
  }
  // A complaint or a return mentioning "I want" is not a new order.
  if (
    found.has('purchase') &&
    (found.has('complaint') || found.has('return_request')) &&
    !/\b(buy|purchase|order (?:another|more|a new))\b|ซื้อ/i.test(text)
  ) {
    found.delete('purchase');
  }
  if (signals.followUpPurchase) found.add('purchase');
  if (signals.hasContact) found.add('contact_update');
  // "Return" in a complaint about a wrong item is a return request too; a bare question about a product is an inquiry.
  if (signals.mentionsProduct && found.size === 0) found.add('product_inquiry');
  const ordered = DETECTORS.filter((i) => found.has(i));
  return ordered.length > 0 ? ordered : ['general_inquiry'];
}
