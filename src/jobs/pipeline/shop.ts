/**
 * The shop a job's answers are held to and its coverage is counted against: the policy file
 * when one is read and applies to the target, else (the embedded emulator only) the emulator's
 * demo shop as the policy `droidcheck init` writes for it, so the quick start's report says
 * which of the demo shop's products and intents its suites reached. A real service without a
 * policy file has no shop droidcheck knows: its coverage has no products.
 */
import { resolveEmulatorProfile } from '../../emulator/profile/resolve.js';
import { demoShopPolicy, parsePolicy, type Policy } from '../../policy/index.js';

/** Where the demo shop's policy comes from, as reports name it. */
export const DEMO_SHOP_SOURCE = "the embedded emulator's demo shop";

/** The embedded emulator's demo shop as a policy (its catalogue, prices, shipping rule and intent names). */
export function emulatorShop(): Policy | undefined {
  const profile = resolveEmulatorProfile(undefined);
  const catalogue = profile.catalogue;
  if (!catalogue) return undefined;
  return parsePolicy(demoShopPolicy(catalogue, { intents: profile.intents.map((i) => i.name) }), DEMO_SHOP_SOURCE);
}
