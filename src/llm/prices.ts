/**
 * Prices of the models droidcheck's documentation names, in USD per million tokens, input and
 * output, each with where it was read and when (docs/llm.md, Budget). A price changes: give the
 * current one with `--model-price MODEL=IN/OUT` (or `modelPrices:` in the config file), which
 * wins over this table. Local models (Ollama) cost nothing per token.
 */

/** The price of one model: USD per million input (prompt) and output (completion) tokens. */
export interface ModelPrice {
  model: string;
  inputPerMTok: number;
  outputPerMTok: number;
  /** Where the price was read (a page of the provider); absent: given by the user. */
  source?: string;
  /** When it was read there (YYYY-MM-DD). */
  date?: string;
}

/** The built-in table (see module docs). */
const BUILT_IN_PRICES: readonly ModelPrice[] = [
  {
    model: 'gpt-4o-mini',
    inputPerMTok: 0.15,
    outputPerMTok: 0.6,
    source: 'https://platform.openai.com/docs/pricing',
    date: '2024-07-18',
  },
  {
    model: 'text-embedding-3-small',
    inputPerMTok: 0.02,
    outputPerMTok: 0,
    source: 'https://platform.openai.com/docs/pricing',
    date: '2024-01-25',
  },
  {
    model: 'llama3.1:8b',
    inputPerMTok: 0,
    outputPerMTok: 0,
    source: 'https://ollama.com/library/llama3.1 (runs locally: no charge per token)',
    date: '2024-07-23',
  },
  {
    model: 'nomic-embed-text',
    inputPerMTok: 0,
    outputPerMTok: 0,
    source: 'https://ollama.com/library/nomic-embed-text (runs locally: no charge per token)',
    date: '2024-02-15',
  },
];

/** The price of `model`: the user's (`given`, the last one for a model wins), else the built-in table's; undefined when neither has it. */
export function priceOf(model: string, given: readonly ModelPrice[]): ModelPrice | undefined {
  for (let i = given.length - 1; i >= 0; i--) if (given[i]!.model === model) return given[i];
  return BUILT_IN_PRICES.find((p) => p.model === model);
}

/** The cost of one call, USD. */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1e6;
}
