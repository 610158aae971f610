/**
 * The conversation the burst tests send under load (`--burst-gap` makes its two say turns one
 * burst: "I want 2 T-Shirt", then "and 1 Canvas Bag", whose final cart must hold both), and the
 * embedded emulator's demo shop written as a real shop's policy file (no `appliesTo`, so it is
 * read against any target): its eight products and its intents, for the coverage figures.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveEmulatorProfile } from '../../src/emulator/index.js';
import { demoShopPolicy } from '../../src/policy/index.js';

/** Writes DIR/talk.yaml (suite `Talk`, scenario `buys in two turns`, 2 s think time); resolves its path. */
export async function writeTwoTurnTalk(dir: string): Promise<string> {
  const file = join(dir, 'talk.yaml');
  await writeFile(
    file,
    `
suite: Talk
scenarios:
  - name: buys in two turns
    think: 2s
    steps:
      - say: I want 2 T-Shirt
      - say: and 1 Canvas Bag
        expect: { shoppingCart.products: { length: 2 } }
`,
  );
  return file;
}

/** Writes DIR/shop.policy.yaml: the demo shop as a real shop's policy; resolves its path. */
export async function writeDemoShopPolicy(dir: string): Promise<string> {
  const file = join(dir, 'shop.policy.yaml');
  const profile = resolveEmulatorProfile(undefined);
  await writeFile(
    file,
    demoShopPolicy(profile.catalogue!, { intents: profile.intents.map((i) => i.name) }).replace(/^appliesTo:.*$/m, ''),
  );
  return file;
}
