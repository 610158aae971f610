/**
 * Picks the profile: an object (validated), a file path, or the default file
 * scenarios/emulator-profile.yaml, falling back to the built-in profile when it is absent.
 */
import { existsSync } from 'node:fs';
import { BUILTIN_PROFILE } from './builtin.js';
import { DEFAULT_PROFILE_PATH, loadProfile, resolveProfile } from './load.js';
import type { EmulatorProfile } from './schema.js';

export function resolveEmulatorProfile(input: EmulatorProfile | string | undefined): EmulatorProfile {
  if (typeof input === 'string') return loadProfile(input);
  if (input !== undefined) return resolveProfile(input);
  return existsSync(DEFAULT_PROFILE_PATH) ? loadProfile(DEFAULT_PROFILE_PATH) : BUILTIN_PROFILE;
}
