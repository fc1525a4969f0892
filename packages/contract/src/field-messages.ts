import { z } from 'zod';
import { validationMessages } from './messages.ts';

/**
 * The plain-English words for a problem a schema does not word itself (issue 27; all ours): a missing field, a
 * wrong type, a limit, a bad option or format. Installed as zod's error map below, so no raw library text
 * ("Too big: expected string to have <=100 characters") reaches a person, from the contract's schemas or from
 * a route's own (a query or route parameter on the server, a form on the web).
 */
export const fieldMessages = {
  required: 'This field is required',
  mustBeText: 'Please enter text',
  mustBeNumber: 'Please enter a number',
  mustBeWholeNumber: 'Please enter a whole number',
  mustBeYesOrNo: 'Please choose yes or no',
  mustBeList: 'Please send a list',
  mustBeDetails: 'The request is missing its details or they are not in the expected form',
  tooLong: (max: number | bigint) => `Must be at most ${max} characters`,
  tooShort: (min: number | bigint) => `Must be at least ${min} characters`,
  exactLength: (length: number | bigint) => `Must be exactly ${length} characters`,
  tooMany: (max: number | bigint) => `At most ${max} allowed`,
  tooFew: (min: number | bigint) => `At least ${min} needed`,
  numberTooSmall: (min: number | bigint) => `Must be ${min} or more`,
  numberTooBig: (max: number | bigint) => `Must be ${max} or less`,
  chooseOne: (options: string) => `Please choose one of: ${options}`,
  invalidChoice: 'Please choose one of the options',
  invalidId: 'Please choose a valid item',
  invalidDate: 'Please enter a valid date and time',
  invalidAddress: 'Please enter a valid web address',
  invalidFormat: 'Please check the format of this value',
  invalidValue: 'Please check this value',
  unknownFields: (keys: string) => `Unknown field: ${keys}`,
  // The server's refusals of a request it cannot read (Fastify's own words before).
  badLink: 'This link is not valid. Please check the address.',
  badJson: 'The request could not be read: its body is not valid JSON.',
  emptyBody: 'The request has no body.',
  jsonOnly: 'Please send the request as JSON.',
  bodyTooLarge: 'The request is too large.',
} as const;

/**
 * Words billing.schemas.ts gives its own fields (a plan change, a card), catalogued here so every request
 * message has one home; they are the same text, byte for byte.
 */
export const billingFieldMessages = {
  billingPeriod: 'Billing period must be monthly or yearly',
  paymentMethodRequired: 'Please choose a card.',
  cardNumberRequired: 'Card number is required',
  cvcRequired: 'CVC is required',
  nameTooLong: 'Name must be at most 200 characters',
  addressTooLong: 'Address must be at most 200 characters',
  cityTooLong: 'City must be at most 100 characters',
  stateTooLong: 'State must be at most 50 characters',
  postalCodeTooLong: 'ZIP or postal code must be at most 20 characters',
  countryCode: 'Country must be a two-letter code, such as US',
  planNameRequired: 'Plan name is required',
  planNameTooLong: 'Plan name must be at most 50 characters',
} as const;

const m = fieldMessages;

type Issue = z.core.$ZodRawIssue;

function typeMessage(issue: Issue & { expected?: string }): string {
  if (issue.input === undefined) return m.required;
  switch (issue.expected) {
    case 'string':
      return m.mustBeText;
    case 'number':
    case 'bigint':
      return m.mustBeNumber;
    case 'int':
      return m.mustBeWholeNumber;
    case 'boolean':
      return m.mustBeYesOrNo;
    case 'array':
    case 'tuple':
      return m.mustBeList;
    case 'date':
      return m.invalidDate;
    default:
      return m.mustBeDetails;
  }
}

function sizeMessage(
  issue: Issue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint },
) {
  const big = issue.code === 'too_big';
  const bound = (big ? issue.maximum : issue.minimum) ?? 0;
  switch (issue.origin) {
    case 'string':
      if (!big && Number(bound) === 1) return m.required;
      return big ? m.tooLong(bound) : m.tooShort(bound);
    case 'array':
    case 'set':
      return big ? m.tooMany(bound) : m.tooFew(bound);
    default:
      return big ? m.numberTooBig(bound) : m.numberTooSmall(bound);
  }
}

function formatMessage(format: string | undefined): string {
  switch (format) {
    case 'email':
      return validationMessages.emailInvalid;
    case 'uuid':
    case 'guid':
    case 'cuid':
    case 'nanoid':
      return m.invalidId;
    case 'datetime':
    case 'date':
    case 'time':
      return m.invalidDate;
    case 'url':
      return m.invalidAddress;
    default:
      return m.invalidFormat;
  }
}

/** The catalogue's words for an issue its schema did not word. */
export function plainIssueMessage(issue: Issue): string {
  const any = issue as Issue & Record<string, unknown>;
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(any);
    case 'too_big':
    case 'too_small':
      return sizeMessage(any);
    case 'invalid_format':
      return formatMessage(any.format as string | undefined);
    case 'invalid_value': {
      const values = (any.values as unknown[] | undefined) ?? [];
      const words = values.filter((value) => typeof value === 'string' || typeof value === 'number');
      return words.length > 1 && words.length <= 12 ? m.chooseOne(words.join(', ')) : m.invalidChoice;
    }
    case 'not_multiple_of':
      return m.mustBeWholeNumber;
    case 'unrecognized_keys':
      return m.unknownFields(((any.keys as string[] | undefined) ?? []).join(', '));
    default:
      return m.invalidValue;
  }
}

z.config({ customError: plainIssueMessage });
