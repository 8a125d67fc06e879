/**
 * @module Test support: rules written as a client would send them, validated into the canonical
 * model (a test's own typo fails loudly with the validation errors).
 */
import type { Rule } from '../../../src/engine/rule.js';
import { type Backend, validateRules } from '../../../src/engine/validate.js';

export function rules(input: object[], backend?: Backend): Rule[] {
  const result = validateRules(input, { backend });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.rules;
}
