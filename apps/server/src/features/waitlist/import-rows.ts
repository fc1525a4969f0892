import { normalizePhone, waitlistMessages } from '@waitlist/contract';
import { parseCsv } from './csv.ts';

/** One row of an imported CSV file: its line, name, phone (and in E.164), notes and what is wrong with it. */
export interface ParsedRow {
  line: number;
  name: string;
  phone: string;
  notes: string;
  e164: string | null;
  error: string | null;
}

/** name, phone, notes columns; a first row naming them is a header (any order), otherwise that order. */
export function parseImport(csv: string): ParsedRow[] {
  const table = parseCsv(csv);
  if (table.length === 0) return [];
  const header = table[0]!.map((cell) => cell.trim().toLowerCase());
  let columns = { name: 0, phone: 1, notes: 2 };
  let start = 0;
  const find = (...names: string[]) => header.findIndex((cell) => names.includes(cell));
  if (find('name', 'full name', 'customer') >= 0 && find('phone', 'phone number', 'mobile', 'cell') >= 0) {
    columns = {
      name: find('name', 'full name', 'customer'),
      phone: find('phone', 'phone number', 'mobile', 'cell'),
      notes: find('notes', 'note', 'comments'),
    };
    start = 1;
  }
  const rows: ParsedRow[] = [];
  for (let index = start; index < table.length; index += 1) {
    const cells = table[index]!;
    if (cells.every((cell) => cell.trim() === '')) continue;
    const name = (cells[columns.name] ?? '').trim();
    const phone = (cells[columns.phone] ?? '').trim();
    const notes = columns.notes >= 0 ? (cells[columns.notes] ?? '').trim() : '';
    const e164 = phone ? normalizePhone(phone) : null;
    let error: string | null = null;
    if (!name) error = waitlistMessages.nameRequired;
    else if (name.length > 100) error = 'Name must be at most 100 characters';
    else if (!phone) error = waitlistMessages.phoneRequired;
    else if (!e164) error = waitlistMessages.invalidPhone;
    rows.push({ line: index + 1, name, phone, notes, e164, error });
  }
  return rows;
}
