/**
 * An argument marked internal (`.meta({internal:true})`) is the loop's own: the model is not offered
 * it. The escalation card's trigger names which hard rule stopped the agent; a model that could set it
 * would dress its own escalation up as the step limit.
 */
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/gate/specs';
import { createEscalateTool } from '../../src/tools/interact/escalate';

describe('internal arguments', () => {
  const escalate = createEscalateTool();
  const spec = toolSpecs([escalate])[0];
  const properties = (spec?.parameters as { properties?: Record<string, unknown> }).properties ?? {};

  it("escalate's schema offers goal, tried and needs — never trigger", () => {
    expect(Object.keys(properties).sort()).toEqual(['goal', 'needs', 'tried']);
    expect(JSON.stringify(spec)).not.toContain('trigger');
  });

  it("sent without a trigger (all the model is offered), an escalation is labelled the model's own", () => {
    const parsed = escalate.schema.parse({ goal: 'g', needs: 'n' });
    expect(parsed.trigger).toBe('model');
  });
});
