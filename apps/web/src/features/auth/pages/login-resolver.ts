import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginBody, loginBody } from '@waitlist/contract';
import type { Resolver } from 'react-hook-form';

/** The login form's validation, a chunk of its own (see lib/lazy-resolver.ts). */
export const loginResolver: Resolver<LoginBody> = zodResolver(loginBody);
