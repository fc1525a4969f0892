import { type CustomerLanguage, normalizePhone, waitlistMessages } from '@waitlist/contract';
import { parseCsv } from './csv.ts';

/** One row of an imported CSV file: its line, name, phone (and in E.164), notes and what is wrong with it. */
export interface ParsedRow {
  line: number;
  name: string;
  phone: string;
  notes: string;
  /** The service and staff member the customer waits for, by name as typed ('' when none; issue 26). */
  service: string;
  staff: string;
  /** The customer's language (issue 28): English when the column is missing or empty. */
  language: CustomerLanguage;
  e164: string | null;
  error: string | null;
}

const headerNames = {
  name: ['name', 'full name', 'customer'],
  phone: ['phone', 'phone number', 'mobile', 'cell'],
  notes: ['notes', 'note', 'comments'],
  service: ['service'],
  staff: ['staff', 'staff member', 'stylist'],
  language: ['language', 'lang', 'idioma'],
};

/** A language cell as people write it, in any case, accents or not (issue 28). */
const languageNames: Record<string, CustomerLanguage> = {
  en: 'en',
  english: 'en',
  inglés: 'en',
  ingles: 'en',
  es: 'es',
  spanish: 'es',
  español: 'es',
  espanol: 'es',
};

/** The language a cell names; '' is English, an unknown name is null. */
export function languageOfCell(cell: string): CustomerLanguage | null {
  const key = cell.trim().toLowerCase();
  return key === '' ? 'en' : (languageNames[key] ?? null);
}

/**
 * name, phone, notes columns, and optionally service, staff and language; a first row naming name and phone is a
 * header (any order, service, staff and language only by a header), otherwise name, phone, notes in that order.
 */
export function parseImport(csv: string): ParsedRow[] {
  const table = parseCsv(csv);
  if (table.length === 0) return [];
  const header = table[0]!.map((cell) => cell.trim().toLowerCase());
  const find = (names: string[]) => header.findIndex((cell) => names.includes(cell));
  let columns = { name: 0, phone: 1, notes: 2, service: -1, staff: -1, language: -1 };
  let start = 0;
  if (find(headerNames.name) >= 0 && find(headerNames.phone) >= 0) {
    columns = {
      name: find(headerNames.name),
      phone: find(headerNames.phone),
      notes: find(headerNames.notes),
      service: find(headerNames.service),
      staff: find(headerNames.staff),
      language: find(headerNames.language),
    };
    start = 1;
  }
  const cell = (cells: string[], column: number) => (column >= 0 ? (cells[column] ?? '').trim() : '');
  const rows: ParsedRow[] = [];
  for (let index = start; index < table.length; index += 1) {
    const cells = table[index]!;
    if (cells.every((value) => value.trim() === '')) continue;
    const name = cell(cells, columns.name);
    const phone = cell(cells, columns.phone);
    const e164 = phone ? normalizePhone(phone) : null;
    let error: string | null = null;
    if (!name) error = waitlistMessages.nameRequired;
    else if (name.length > 100) error = 'Name must be at most 100 characters';
    else if (!phone) error = waitlistMessages.phoneRequired;
    else if (!e164) error = waitlistMessages.invalidPhone;
    const language = languageOfCell(cell(cells, columns.language));
    if (!error && !language) error = waitlistMessages.invalidLanguage;
    rows.push({
      line: index + 1,
      name,
      phone,
      notes: cell(cells, columns.notes),
      service: cell(cells, columns.service),
      staff: cell(cells, columns.staff),
      language: language ?? 'en',
      e164,
      error,
    });
  }
  return rows;
}
