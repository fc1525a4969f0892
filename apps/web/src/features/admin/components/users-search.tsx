import { ADMIN_SEARCH_MAX_LENGTH } from '@waitlist/contract';
import { useEffect, useId, useRef, useState } from 'react';

export const SEARCH_DELAY_MS = 300;

type UsersSearchProps = {
  /** The search the list shows now (from the address). */
  value: string;
  onSearch: (search: string) => void;
};

/** The search box: the list follows it a moment after typing stops, not on every key. */
export function UsersSearch({ value, onSearch }: UsersSearchProps) {
  const id = useId();
  const [input, setInput] = useState(value);
  // The last search handed to the list, to tell our own changes from Back/Forward or Clear filters.
  const committed = useRef(value);

  useEffect(() => {
    if (value === committed.current) return;
    committed.current = value;
    setInput(value);
  }, [value]);

  useEffect(() => {
    const search = input.trim();
    if (search === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = search;
      onSearch(search);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input, onSearch]);

  return (
    <div className="field admin-filters__search">
      <label className="field__label" htmlFor={id}>
        Search
      </label>
      <input
        id={id}
        type="search"
        className="field__input"
        placeholder="Name, email, business or phone"
        maxLength={ADMIN_SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        value={input}
        onChange={(event) => setInput(event.target.value)}
      />
    </div>
  );
}
