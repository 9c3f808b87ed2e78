/** One evaluation, pure (evaluate.ts): its facts, links, account input, email history, uniques and outcome. */
export * from './facts';
export * from './links';
export * from './account-input';
export * from './email-history';
export * from './uniques';
export * from './outcome';
export * from './evaluate';
