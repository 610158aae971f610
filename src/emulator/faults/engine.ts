/**
 * Rolls the dice of a fault profile. One seeded stream (reset whenever the profile is set):
 * each matching rule consumes exactly one draw per request or delivery, in rule order.
 */
import { childRandom, normal, type Random } from '../random.js';
import {
  parseFaultProfile,
  type DelayDistribution,
  type EndpointName,
  type FaultProfile,
  type FaultProfileInput,
  type RequestFaultRule,
  type WebhookFaultRule,
} from './profile.js';

/** The outbound webhook a delivery belongs to. */
export type WebhookKind = 'answer' | 'message' | 'intent';

export class FaultEngine {
  private current: FaultProfile;
  private random: Random;

  constructor(
    private readonly defaultSeed: number,
    input?: FaultProfileInput,
  ) {
    this.current = parseFaultProfile(input);
    this.random = childRandom(this.current.seed ?? defaultSeed, 'faults');
  }

  get profile(): FaultProfile {
    return this.current;
  }

  /** Replaces the profile and restarts the stream; throws FaultProfileError. */
  set(input: FaultProfileInput | undefined): FaultProfile {
    this.current = parseFaultProfile(input);
    this.random = childRandom(this.current.seed ?? this.defaultSeed, 'faults');
    return this.current;
  }

  /** The first request rule that fires for this endpoint, if any (`burst-first-late` rules apart: `burstFault`). */
  requestFault(endpoint: EndpointName): RequestFaultRule | undefined {
    return this.#firstFiring(endpoint, false);
  }

  /** The first `burst-first-late` rule that fires for this endpoint (it answers nothing itself, so it never hides the others). */
  burstFault(endpoint: EndpointName): Extract<RequestFaultRule, { action: 'burst-first-late' }> | undefined {
    return this.#firstFiring(endpoint, true) as Extract<RequestFaultRule, { action: 'burst-first-late' }> | undefined;
  }

  /** True when the profile holds a `burst-first-late` rule (the emulator then tracks the answers being made: faults/burst.ts). */
  get tracksBursts(): boolean {
    return this.current.requests.some((r) => r.action === 'burst-first-late');
  }

  #firstFiring(endpoint: EndpointName, burst: boolean): RequestFaultRule | undefined {
    const rules = this.current.requests;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if ((rule.action === 'burst-first-late') !== burst) continue;
      const applies =
        rule.endpoint === '*' ||
        rule.endpoint === endpoint ||
        (Array.isArray(rule.endpoint) && rule.endpoint.includes(endpoint));
      if (applies && this.random() < rule.probability) return rule;
    }
    return undefined;
  }

  /**
   * Every webhook rule for `kind` that fires for one delivery (drop wins over the others). Only
   * rules for that kind draw, so adding message or intent rules leaves the answer draws as they were.
   */
  webhookFaults(kind: WebhookKind = 'answer'): WebhookFaultRule[] {
    const rules = this.current.webhooks;
    if (rules.length === 0) return rules;
    return rules.filter((rule) => (rule.target === kind || rule.target === '*') && this.random() < rule.probability);
  }

  ackDelayMs(fallback: number): number {
    return this.current.ackDelay ? this.draw(this.current.ackDelay) : fallback;
  }

  answerDelayMs(fallback: number): number {
    return this.current.answerDelay ? this.draw(this.current.answerDelay) : fallback;
  }

  /** One sample of a delay distribution, ms (rounded, >= 0). */
  draw(d: DelayDistribution): number {
    switch (d.kind) {
      case 'fixed':
        return d.ms;
      case 'uniform': {
        const lo = Math.min(d.minMs, d.maxMs);
        return Math.round(lo + this.random() * Math.abs(d.maxMs - d.minMs));
      }
      case 'lognormal': {
        const v = d.medianMs * Math.exp(d.sigma * normal(this.random));
        return Math.round(Math.min(v, d.maxMs ?? Number.POSITIVE_INFINITY));
      }
    }
  }
}
