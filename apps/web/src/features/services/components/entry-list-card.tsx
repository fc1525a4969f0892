import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';

export type Entry = { id: string; name: string; meta?: string };

type EntryListCardProps = {
  title: string;
  subtitle: string;
  /** What the list is for, shown while it is empty. */
  empty: ReactNode;
  addLabel: string;
  entries: Entry[] | undefined;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  onAdd: () => void;
  onEdit: (id: string) => void;
  onDelete: (id: string) => void;
};

/** A card listing services or staff, each with Edit and Delete, and an Add button. */
export function EntryListCard(props: EntryListCardProps) {
  const titleId = `${props.title.toLowerCase().replaceAll(' ', '-')}-title`;
  return (
    <Card className="stack entry-card">
      <header className="card__header entry-card__header">
        <div>
          <h2 id={titleId} className="card__title">
            {props.title}
          </h2>
          <p className="card__subtitle">{props.subtitle}</p>
        </div>
        <Button variant="secondary" onClick={props.onAdd} disabled={props.loading || props.error !== null}>
          {props.addLabel}
        </Button>
      </header>
      {props.loading ? (
        <Skeleton lines={3} label={`Loading ${props.title.toLowerCase()}`} />
      ) : props.error ? (
        <div className="stack">
          <Alert>{props.error}</Alert>
          <Button variant="secondary" onClick={props.onRetry}>
            Try again
          </Button>
        </div>
      ) : !props.entries || props.entries.length === 0 ? (
        <p className="muted entry-card__empty">{props.empty}</p>
      ) : (
        <ul className="entry-list" aria-labelledby={titleId}>
          {props.entries.map((entry) => (
            <li key={entry.id} className="entry-list__item" aria-label={entry.name}>
              <div className="entry-list__text">
                <span className="entry-list__name">{entry.name}</span>
                {entry.meta ? <span className="entry-list__meta">{entry.meta}</span> : null}
              </div>
              <div className="entry-list__actions">
                <Button
                  variant="ghost"
                  aria-label={`Edit ${entry.name}`}
                  onClick={() => props.onEdit(entry.id)}
                >
                  Edit
                </Button>
                <Button
                  variant="ghost"
                  className="entry-list__delete"
                  aria-label={`Delete ${entry.name}`}
                  onClick={() => props.onDelete(entry.id)}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
