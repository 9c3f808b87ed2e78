/** The scores of an evaluation (scores.ts), their weights (constants.ts) and their terms for a receipt (breakdown.ts). */
export * from './constants';
export * from './scores';
export * from './breakdown';
