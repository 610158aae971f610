/**
 * Writes the answer text, one paragraph per topic, in the customer's language.
 * Paragraphs are separated by a blank line; each becomes one AIMessage in `responses`.
 */
import type { AddressParsing } from '../../contract/index.js';
import { formatAddress, hasAddress } from './address.js';
import type { PricedCart } from './cart.js';
import { formatMoney, type Catalogue, type CatalogueProduct } from './catalogue.js';
import type { ContactInfo } from './contact.js';
import type { Detector } from './intents.js';
import type { Language } from './language.js';

export interface ComposeInput {
  language: Language;
  /** Detectors that fired (the rule engine's topics, not the droid's intent names). */
  intents: Detector[];
  /** Products named in the message (for inquiries). */
  products: CatalogueProduct[];
  cart: PricedCart;
  address: AddressParsing;
  contact: ContactInfo;
  catalogue: Catalogue;
}

type Writer = (c: ComposeInput) => string[];

function money(c: ComposeInput, amount: number): string {
  return formatMoney(amount, c.catalogue.currency);
}

function productList(c: ComposeInput, items: CatalogueProduct[]): string {
  return items.map((p) => `${p.name} (${money(c, p.price)})`).join(', ');
}

const EN: Writer = (c) => {
  const out: string[] = [];
  const has = (i: Detector) => c.intents.includes(i);
  const name = c.contact.name ? `, ${c.contact.name}` : '';
  if (has('greeting')) out.push(`Hello${name}! Welcome to our shop. How can I help you today?`);
  if (has('complaint')) {
    out.push(
      "I'm very sorry about the trouble with your order. I have passed this to our support team, who will contact you within 24 hours to put it right.",
    );
  }
  if (has('return_request')) {
    out.push(
      'You can return unused items within 14 days of delivery for a full refund or an exchange. Please send us your order number and a photo of the item, and we will arrange the pickup.',
    );
  }
  if (has('purchase')) {
    if (c.cart.cart.products.length > 0) {
      const lines = c.cart.cart.products.map(
        (p) => `${p.count} x ${p.name} at ${money(c, p.price)} each (${money(c, p.total)})`,
      );
      out.push(`I've added to your cart: ${lines.join('; ')}.`);
      const ship =
        c.cart.shipping === 0
          ? `Shipping is free for orders of ${money(c, c.catalogue.freeShippingThreshold)} or more`
          : `Shipping is ${money(c, c.cart.shipping)}`;
      out.push(`${ship}. Your grand total is ${c.cart.cart.grandTotal}.`);
      out.push(
        hasAddress(c.address)
          ? `We will deliver to ${formatAddress(c.address)}.`
          : 'Please send me your delivery address with the postal code so I can arrange delivery.',
      );
    } else {
      out.push(`Which product would you like to order? We have ${productList(c, c.catalogue.products)}.`);
    }
  } else if (has('price_inquiry') || has('product_inquiry')) {
    out.push(
      c.products.length > 0
        ? c.products.map((p) => `The ${p.name} is ${money(c, p.price)} and is in stock.`).join(' ')
        : `Here is our range: ${productList(c, c.catalogue.products)}.`,
    );
  }
  if (has('shipping') && !has('purchase') && !has('complaint')) {
    out.push(
      `We ship across Thailand: 1-2 business days within Bangkok and 2-4 days elsewhere. Shipping is ${money(c, c.catalogue.shippingFee)}, free for orders of ${money(c, c.catalogue.freeShippingThreshold)} or more.`,
    );
    if (hasAddress(c.address)) out.push(`We can deliver to ${formatAddress(c.address)}.`);
  }
  if (has('payment')) out.push('You can pay by bank transfer, PromptPay, credit card or cash on delivery.');
  if (has('contact_update')) {
    const parts = [c.contact.phone && `phone ${c.contact.phone}`, c.contact.email && `email ${c.contact.email}`].filter(
      Boolean,
    );
    out.push(
      parts.length > 0
        ? `Thank you${name}. I have saved your contact details: ${parts.join(', ')}.`
        : `Thank you${name}. I have noted your details.`,
    );
  }
  if (has('thanks')) out.push("You're welcome! Let me know if there is anything else I can help with.");
  if (out.length === 0 || (c.intents.length === 1 && has('general_inquiry'))) {
    out.push(
      'Thanks for your message. I can help you with our products, orders, delivery and returns. What would you like to know?',
    );
  }
  return out;
};

const TH: Writer = (c) => {
  const out: string[] = [];
  const has = (i: Detector) => c.intents.includes(i);
  const name = c.contact.name ? ` คุณ${c.contact.name}` : '';
  if (has('greeting')) out.push(`สวัสดีค่ะ${name} ยินดีต้อนรับสู่ร้านของเรา มีอะไรให้ช่วยไหมคะ`);
  if (has('complaint')) out.push('ขออภัยเป็นอย่างสูงสำหรับปัญหาที่เกิดขึ้นค่ะ ทีมงานจะติดต่อกลับภายใน 24 ชั่วโมงเพื่อแก้ไขให้ค่ะ');
  if (has('return_request'))
    out.push(
      'สามารถคืนสินค้าที่ยังไม่ได้ใช้งานได้ภายใน 14 วันหลังได้รับสินค้า เพื่อขอคืนเงินหรือเปลี่ยนสินค้า กรุณาส่งหมายเลขคำสั่งซื้อและรูปสินค้ามาด้วยค่ะ',
    );
  if (has('purchase')) {
    if (c.cart.cart.products.length > 0) {
      const lines = c.cart.cart.products.map(
        (p) => `${p.name} จำนวน ${p.count} ชิ้น ชิ้นละ ${money(c, p.price)} (${money(c, p.total)})`,
      );
      out.push(`เพิ่มลงตะกร้าแล้วค่ะ: ${lines.join(', ')}`);
      const ship = c.cart.shipping === 0 ? 'ส่งฟรี' : `ค่าจัดส่ง ${money(c, c.cart.shipping)}`;
      out.push(`${ship} ยอดรวมทั้งหมด ${c.cart.cart.grandTotal} ค่ะ`);
      out.push(hasAddress(c.address) ? `จัดส่งไปที่ ${formatAddress(c.address)} ค่ะ` : 'รบกวนแจ้งที่อยู่จัดส่งพร้อมรหัสไปรษณีย์ด้วยค่ะ');
    } else {
      out.push(`ต้องการสั่งสินค้าตัวไหนคะ เรามี ${productList(c, c.catalogue.products)}`);
    }
  } else if (has('price_inquiry') || has('product_inquiry')) {
    out.push(
      c.products.length > 0
        ? c.products.map((p) => `${p.name} ราคา ${money(c, p.price)} มีสินค้าพร้อมส่งค่ะ`).join(' ')
        : `สินค้าของเรา: ${productList(c, c.catalogue.products)}`,
    );
  }
  if (has('shipping') && !has('purchase') && !has('complaint')) {
    out.push(
      `เราจัดส่งทั่วประเทศไทย กรุงเทพฯ 1-2 วันทำการ ต่างจังหวัด 2-4 วันทำการ ค่าจัดส่ง ${money(c, c.catalogue.shippingFee)} ส่งฟรีเมื่อซื้อครบ ${money(c, c.catalogue.freeShippingThreshold)} ค่ะ`,
    );
    if (hasAddress(c.address)) out.push(`จัดส่งไปที่ ${formatAddress(c.address)} ได้ค่ะ`);
  }
  if (has('payment')) out.push('ชำระเงินได้ทางโอนเงิน พร้อมเพย์ บัตรเครดิต หรือเก็บเงินปลายทางค่ะ');
  if (has('contact_update')) {
    const parts = [
      c.contact.phone && `เบอร์โทร ${c.contact.phone}`,
      c.contact.email && `อีเมล ${c.contact.email}`,
    ].filter(Boolean);
    out.push(parts.length > 0 ? `ขอบคุณค่ะ${name} บันทึกข้อมูลติดต่อแล้ว: ${parts.join(', ')}` : `ขอบคุณค่ะ${name} บันทึกข้อมูลแล้วค่ะ`);
  }
  if (has('thanks')) out.push('ยินดีค่ะ หากมีอะไรให้ช่วยเพิ่มเติมแจ้งได้เลยนะคะ');
  if (out.length === 0 || (c.intents.length === 1 && has('general_inquiry'))) {
    out.push('ขอบคุณสำหรับข้อความค่ะ สอบถามเรื่องสินค้า การสั่งซื้อ การจัดส่ง หรือการคืนสินค้าได้เลยค่ะ');
  }
  return out;
};

/** The answer's paragraphs, never empty. */
export function composeParagraphs(input: ComposeInput): string[] {
  return input.language === 'th' ? TH(input) : EN(input);
}
