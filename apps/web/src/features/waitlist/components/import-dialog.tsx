import { type ChangeEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { displayPhone } from '../../../lib/phone-display.ts';
import { type ImportPreview, useImportWaitlist, usePreviewImport } from '../api/import-waitlist.ts';
import './import-dialog.css';

const example =
  "name,phone,notes,service,stylist,language\nMaria Lopez,(212) 555-0143,Prefers mornings,Women's cut,Priya,Spanish\nSam Lee,+44 20 7946 0958,,,,";

/** CSV import in two steps: a preview with every row's error, then the import of the valid rows. */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const preview = usePreviewImport();
  const importer = useImportWaitlist();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [result, setResult] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setCsv(await file.text());
    setResult(null);
  };

  const onPreview = async () => {
    setError(null);
    if (!csv.trim()) {
      setError('Choose a CSV file or paste its contents first.');
      return;
    }
    try {
      setResult(await preview.mutateAsync(csv));
    } catch (failure) {
      setResult(null);
      setError(screenErrorMessage(failure, 'Could not read the CSV file.'));
    }
  };

  const onImport = async () => {
    setError(null);
    try {
      const answer = await importer.mutateAsync(csv);
      toast.success(answer.message);
      onClose();
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not import the customers.'));
    }
  };

  return (
    <Modal
      title="Import customers from CSV"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {result ? (
            <Button onClick={onImport} busy={importer.isPending} disabled={result.valid === 0}>
              Import {result.valid} customer{result.valid === 1 ? '' : 's'}
            </Button>
          ) : (
            <Button onClick={onPreview} busy={preview.isPending}>
              Preview
            </Button>
          )}
        </>
      }
    >
      <div className="stack">
        <p className="field__hint">
          Columns: name, phone, and optionally notes, service, stylist (or staff) and language (English or
          Spanish; English when empty). Service and stylist names match yours whatever the case or punctuation
          (“womens cut” is “Women’s cut”); a name we cannot match is shown with the closest one to check.
          Imported customers are recorded as having agreed to texts elsewhere, so import only people who asked
          to be on your waitlist.
        </p>
        {/* The browser's own file button cannot be styled: the input stays (keyboard, screen readers) but
            hidden, and its label is drawn as one of our buttons. */}
        <div className="field">
          <span className="field__label" aria-hidden="true">
            CSV file
          </span>
          <div className="file-picker">
            <input
              id="csv-file"
              className="file-picker__input"
              type="file"
              accept=".csv,text/csv"
              aria-describedby="csv-file-name"
              onChange={onFile}
            />
            <label htmlFor="csv-file" className="button button--secondary file-picker__button">
              Choose a CSV file
            </label>
            <span id="csv-file-name" className="file-picker__name" data-testid="csv-file-name">
              {fileName ?? 'No file chosen'}
            </span>
          </div>
        </div>
        <TextareaField
          label="Or paste the CSV"
          rows={5}
          placeholder={example}
          value={csv}
          onChange={(event) => {
            setCsv(event.target.value);
            setFileName(null);
            setResult(null);
          }}
        />
        {error ? <Alert>{error}</Alert> : null}
        {result ? <ImportPreviewTable preview={result} /> : null}
      </div>
    </Modal>
  );
}

/** Issue 39: what a row got: its service, stylist and language, as the waitlist will show them. */
function rowGets(row: ImportPreview['rows'][number]): string {
  if (row.error) return '—';
  const parts = [row.service ?? 'Any service', row.staff ? `with ${row.staff}` : null];
  if (row.language === 'es') parts.push('Spanish');
  return parts.filter(Boolean).join(' · ');
}

function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  return (
    <div className="import-preview">
      <p role="status">
        {preview.valid} ready to import
        {preview.invalid > 0 ? `, ${preview.invalid} with errors (skipped)` : ''}.
      </p>
      <div className="import-preview__scroll">
        <table className="import-preview__table">
          <caption className="visually-hidden">Import preview</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Customer</th>
              <th scope="col">Gets</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line} className={row.error ? 'import-preview__row--error' : undefined}>
                <td>{row.line}</td>
                <td>
                  {row.name || '—'}
                  <span className="import-preview__phone">
                    {row.error ? row.phone || '—' : displayPhone(row.phone)}
                  </span>
                </td>
                <td data-testid="import-row-gets">{rowGets(row)}</td>
                <td>{row.error ? <span className="import-preview__error">{row.error}</span> : 'Ready'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
