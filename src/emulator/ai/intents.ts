/**
 * Keyword intents (English and Thai). `detectIntents` returns them in priority order;
 * the first is the user's main intent (customerInsight.user_intent).
 */

export const INTENTS = [
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
export type Intent = (typeof INTENTS)[number];

const RULES: Record<Exclude<Intent, 'general_inquiry'>, RegExp> = {
  complaint:
    /\b(complain\w*|broken|damaged|defect\w*|terrible|awful|angry|disappoint\w*|unacceptable|wrong (?:item|size|colou?r)|not happy|torn|ripped|never arrived|still (?:not|hasn't|haven't)|worst)\b|ไม่พอใจ|ชำรุด|เสียหาย|แย่มาก|ผิดหวัง|ขาด|ยังไม่ได้รับ/i,
  return_request: /\b(return\w*|refund\w*|exchange|send (?:it|them) back|money back)\b|คืนสินค้า|คืนเงิน|ขอคืน|เปลี่ยนสินค้า|เปลี่ยนไซส์/i,
  purchase:
    /\b(buy|buying|purchase|order|ordering|i'?ll take|i will take|take (?:\d+|one|two|three|four|five|it|them)|add (?:\w+ )?to (?:my )?cart|i'?d like|i want|i need|checkout|check out)\b|ซื้อ|สั่ง|เอา|ใส่ตะกร้า|ต้องการ/i,
  price_inquiry: /\b(price|prices|how much|cost|costs|pricing|cheap\w*|discount|promotion|sale)\b|ราคา|เท่าไหร่|เท่าไร|กี่บาท|ลดราคา|โปรโมชั่น/i,
  product_inquiry: /\b(do you (?:sell|have|carry)|in stock|available|availability|sizes?|colou?rs?|what (?:products|do you sell)|catalog\w*|recommend\w*)\b|มี.*(?:ไหม|มั้ย|หรือเปล่า)|มีขาย|ไซส์|มีสี|สีอะไร/i,
  shipping:
    /\b(ship|shipping|shipped|deliver\w*|send (?:it|them|to)|track\w*|parcel|package|courier|arriv\w*|when will|where is my (?:order|parcel|package))\b|จัดส่ง|ส่งของ|ส่งที่|ส่งไป|ค่าส่ง|พัสดุ|เลขพัสดุ|ได้รับของ/i,
  payment: /\b(pay|paid|payment|credit card|bank transfer|transfer|promptpay|cash on delivery|cod|invoice|receipt)\b|จ่าย|ชำระ|โอน|พร้อมเพย์|เก็บเงินปลายทาง|ใบเสร็จ/i,
  contact_update:
    /\b(my name is|name:|call me|my (?:phone|number|mobile|email|e-mail)|phone(?: number)?:|email:|contact (?:me|details|info))\b|ชื่อ|เบอร์|โทร|อีเมล|ติดต่อ/i,
  greeting: /\b(hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings)\b|สวัสดี|หวัดดี|ดีครับ|ดีค่ะ/i,
  thanks: /\b(thanks|thank you|thx|cheers|appreciate)\b|ขอบคุณ|ขอบใจ/i,
};

export interface IntentSignals {
  /** A product is named in the message. */
  mentionsProduct: boolean;
  /** A contact detail (name, phone, email) was extracted from the message. */
  hasContact: boolean;
  /** A quantity with no product, following a conversation about a product ("I'll take 2"). */
  followUpPurchase: boolean;
}

/** Intents of one message in priority order; never empty (falls back to general_inquiry). */
export function detectIntents(text: string, signals: IntentSignals): Intent[] {
  const found = new Set<Intent>();
  for (const intent of INTENTS) {
    if (intent === 'general_inquiry') continue;
    if (RULES[intent].test(text)) found.add(intent);
  }
  // "I want / I need / เอา" only buys something when there is something to buy.
  if (found.has('purchase') && !signals.mentionsProduct && !signals.followUpPurchase && !/\b(buy|purchase|checkout)\b|ซื้อ|สั่งซื้อ/i.test(text)) {
    found.delete('purchase');
  }
  // A complaint or a return mentioning "I want" is not a new order.
  if (found.has('purchase') && (found.has('complaint') || found.has('return_request')) && !/\b(buy|purchase|order (?:another|more|a new))\b|ซื้อ/i.test(text)) {
    found.delete('purchase');
  }
  if (signals.followUpPurchase) found.add('purchase');
  if (signals.hasContact) found.add('contact_update');
  // "Return" in a complaint about a wrong item is a return request too; a bare question about a product is an inquiry.
  if (signals.mentionsProduct && found.size === 0) found.add('product_inquiry');
  const ordered = INTENTS.filter((i) => found.has(i));
  return ordered.length > 0 ? ordered : ['general_inquiry'];
}
