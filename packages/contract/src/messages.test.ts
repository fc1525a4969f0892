import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index.ts';
import { issueMessages, unwordedChecks } from './schema-probes.test-helpers.ts';

/**
 * Every validation message is plain English from the contract's message catalogues (issue 27): no raw library
 * text ("Too big: expected string to have <=100 characters") reaches a person, from any schema a client sends.
 */

const exported = Object.entries(contract);
const isSchema = (value: unknown): value is z.ZodType =>
  Boolean(value) && typeof value === 'object' && '_zod' in (value as object);

/** The schemas that describe the server's answers: a person never types them, so never reads their errors. */
const isAnswerSchema = (name: string) =>
  /(Response|Schema)$/.test(name) && name !== 'messageTemplateKeySchema';

/** What clients send: bodies, queries, route parameters, form fields and web forms. */
const requestSchemas = exported.filter(([name, value]) => isSchema(value) && !isAnswerSchema(name)) as [
  string,
  z.ZodType,
][];

const inCatalogue = contract.isCatalogueMessage;

describe('the message catalogue', () => {
  it('holds every exported message catalogue', () => {
    const exportedCatalogues = exported.filter(([name]) => /Messages$/.test(name)).map(([name]) => name);
    expect(Object.keys(contract.messageCatalogues).sort()).toEqual(exportedCatalogues.sort());
  });

  it('knows every request schema of the contract', () => {
    expect(requestSchemas.length).toBeGreaterThan(35);
    expect(requestSchemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['registerBody', 'createCustomerBody', 'adminUsersQuery', 'joinBody']),
    );
  });

  it.each(requestSchemas)('%s says every problem in words from the catalogue', (_name, schema) => {
    const raw = [...issueMessages(schema)]
      .filter(([message]) => !inCatalogue(message))
      .map(([message, input]) => `${message}  ← ${JSON.stringify(input)?.slice(0, 80)}`);
    expect(raw).toEqual([]);
  });

  it('every limit of a request schema carries its own words', () => {
    const unworded = requestSchemas.flatMap(([name, schema]) => unwordedChecks(schema, name));
    expect(unworded).toEqual([]);
    // The walk does see an unworded limit.
    expect(unwordedChecks(z.object({ name: z.string().max(3) }), 'example')).toEqual([
      'example.name: max_length',
    ]);
  });

  it("turns any problem a schema does not word into the catalogue's words", () => {
    const schema = z.object({ name: z.string().max(3), id: z.uuid(), count: z.number().int().min(1) });
    const messages = [...issueMessages(schema).keys()];
    expect(messages).toEqual(
      expect.arrayContaining([
        contract.fieldMessages.tooLong(3),
        contract.fieldMessages.invalidId,
        contract.fieldMessages.numberTooSmall(1),
        contract.fieldMessages.mustBeWholeNumber,
        contract.fieldMessages.required,
      ]),
    );
    expect(messages.filter((message) => !inCatalogue(message))).toEqual([]);
  });

  it("would catch raw library text: without the catalogue's error map zod words it itself", () => {
    const { customError } = z.config();
    z.config({ customError: undefined });
    try {
      const raw = [...issueMessages(z.object({ name: z.string().max(3) })).keys()];
      expect(raw).toContain('Too big: expected string to have <=3 characters');
      expect(raw.filter((message) => !inCatalogue(message)).length).toBeGreaterThan(0);
    } finally {
      z.config({ customError });
    }
  });
});
