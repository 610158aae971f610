import { generateAnswer } from '../../src/emulator/ai/index.js';
const cases: [string, [string,string][]][] = [
  ["I'll take 2, please send them to 99 Sukhumvit Rd, Bangkok 10110", [["human","Hi, do you sell shirts?"],["ai","Yes, we have Oxford shirts for 1,290 THB."]]],
  ["I want to buy 2 Oxford shirts, please send to 99 Sukhumvit Rd, Bangkok 10110", []],
  ["Hello there!", []],
  ["สวัสดีค่ะ อยากสั่งเสื้อเชิ้ต 2 ตัว ส่งที่ 123/4 ถนนนิมมานเหมินท์ ตำบลสุเทพ อำเภอเมืองเชียงใหม่ เชียงใหม่ 50200 ค่ะ", []],
  ["My name is Somchai Jaidee and my phone is 081-234-5678, email somchai@example.co.th", []],
  ["ผมชื่อสมชายครับ เบอร์ 0812345678", []],
  ["The jacket I received is damaged, I want a refund", []],
  ["How much is the leather belt?", []],
  ["I'd like two t-shirts and a belt", []],
  ["Where is my order? It still hasn't arrived", []],
];
for (const [m, h] of cases) {
  const r = generateAnswer({ humanMessage: m, chatHistory: h.map(([type, content]) => ({ type: type as 'human'|'ai', content })) });
  console.log('>>', m); console.log(JSON.stringify({ intents: r.intents, cart: r.shoppingCart, addr: r.addressParsing, ci: r.customerInsight.contact_info, lang: r.customerInsight.user_language, pk: r.customerInsight.product_keyword }), '\n', r.answer, '\n');
}
import {it} from 'vitest'; it('x',()=>{});
