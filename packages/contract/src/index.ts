export * from './auth.schemas.ts';
export * from './billing.messages.ts';
export * from './billing.schemas.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './phone.ts';
export * from './user.schemas.ts';
