/**
 * @module Types of the fake GitHub fixtures.
 */
export const FIXED_NOW: number;
export const fixtures: { users: readonly object[] };
