/**
 * Which of the shop's products a text or a cart line names: the policy's catalogue, each product
 * by its name and its aliases (codes, short names, translations: docs/policy.md), as a customer
 * or a droid writes them.
 *
 * In a text, a name is found ignoring case and runs of whitespace, as a whole word (not inside
 * another: "bag" is not in "baggage", "shirt" not in "t-shirt"), with an optional plural `s` or
 * `es`; a name in a script written without spaces (Thai, Chinese, Japanese...) is found anywhere
 * in the text. The longer name wins where two overlap ("silk scarves" before "scarf"), so one
 * mention is one product.
 *
 * A cart line names a product by its `name` or `code` equal to a name or alias (the policy's
 * own lookup, catalogue.ts), else by a name its `name` mentions when it mentions exactly one
 * (`"Tote bag - natural"`). A line that names none, or none readable, is counted apart and never
 * covers anything: the line's fields are not shown by the specification, so a shape droidcheck
 * cannot read says nothing about the shop.
 */
import { fold, productOf, type CartLine, type Policy } from '../policy/index.js';

/** Scripts written without spaces between words: a name in them is matched anywhere. */
const UNSPACED =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Name {
  /** The folded name. */
  text: string;
  /** Index of its product in the catalogue. */
  product: number;
  pattern: RegExp;
}

/** The catalogue's names compiled once, longest first (see the module docs). */
export class ProductIndex {
  readonly #names: Name[];
  readonly #policy: Policy;
  readonly #byEntry: Map<object, number>;

  constructor(policy: Policy) {
    this.#policy = policy;
    const catalogue = policy.catalogue ?? [];
    this.#byEntry = new Map(catalogue.map((p, i) => [p, i]));
    // A name two products share (an alias given twice) names the first, as the policy's lookup does.
    const first = new Map<string, number>();
    catalogue.forEach((p, product) => {
      for (const n of [p.name, ...(p.aliases ?? [])]) {
        const text = fold(n).trim();
        if (text !== '' && !first.has(text)) first.set(text, product);
      }
    });
    this.#names = [...first]
      .map(([text, product]) => {
        const body = text.split(' ').map(escapeRegExp).join('\\s+');
        const source = UNSPACED.test(text) ? body : `(?<![\\p{L}\\p{N}-])${body}(?:s|es)?(?![\\p{L}\\p{N}])`;
        return { text, product, pattern: new RegExp(source, 'giu') };
      })
      .sort((a, b) => b.text.length - a.text.length);
  }

  /** How many products the catalogue lists. */
  get size(): number {
    return this.#byEntry.size;
  }

  /** The products `text` names (indexes into the catalogue), each once. */
  inText(text: string): Set<number> {
    const found = new Set<number>();
    if (this.#names.length === 0 || text === '') return found;
    const taken: [number, number][] = [];
    for (const name of this.#names) {
      name.pattern.lastIndex = 0;
      for (let m = name.pattern.exec(text); m; m = name.pattern.exec(text)) {
        const start = m.index;
        const end = start + m[0].length;
        if (m[0].length === 0) name.pattern.lastIndex++;
        else if (!taken.some(([s, e]) => start < e && end > s)) {
          taken.push([start, end]);
          found.add(name.product);
        }
      }
    }
    return found;
  }

  /** The product a cart line names (an index into the catalogue), or undefined (see the module docs). */
  ofLine(line: CartLine): number | undefined {
    const entry = productOf(this.#policy, line);
    if (entry) return this.#byEntry.get(entry);
    if (line.name === undefined) return undefined;
    const named = this.inText(line.name);
    return named.size === 1 ? [...named][0] : undefined;
  }
}
