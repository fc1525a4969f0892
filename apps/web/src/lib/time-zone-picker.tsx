import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Field } from '../components/ui/field.tsx';
import {
  searchTimeZones,
  type TimeZoneOption,
  timeZoneCity,
  timeZoneNow,
  timeZoneOffset,
  timeZoneOptions,
  timeZoneRegion,
} from './time-zones.ts';
import './time-zone-picker.css';

/** Options drawn at once: typing narrows the rest (a phone need not lay out four hundred rows). */
const SHOWN = 50;

/** The time now, read again each half minute while the list is open so its clocks stay true. */
function useNow(ticking: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!ticking) return;
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

function ZoneRow({ option, now, chosen }: { option: TimeZoneOption; now: Date; chosen: boolean }) {
  const offset = timeZoneOffset(option.id, now);
  return (
    <>
      <span className="tz-picker__city">
        {option.city}
        {chosen ? <span className="tz-picker__check"> ✓</span> : null}
      </span>
      <span className="tz-picker__time">{timeZoneNow(option.id, now)}</span>
      <span className="tz-picker__region">{[option.region, offset].filter(Boolean).join(' · ')}</span>
    </>
  );
}

/** The combobox's state: what is typed, whether the list is open, and which row the arrow keys are on. */
function useZoneCombobox(value: string, onChange: (zone: string) => void) {
  const listId = useId();
  // null while not typing: the input then shows the chosen zone's city.
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = useMemo(() => timeZoneOptions(value), [value]);
  const matches = useMemo(() => searchTimeZones(options, query ?? ''), [options, query]);
  const shown = matches.slice(0, SHOWN);

  const openList = () => {
    if (open) return;
    setOpen(true);
    setActive(Math.max(0, query === null ? shown.findIndex((option) => option.id === value) : 0));
  };
  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const choose = (option: TimeZoneOption | undefined) => {
    if (!option) return;
    if (option.id !== value) onChange(option.id);
    close();
  };
  const type = (text: string) => {
    setQuery(text);
    setOpen(true);
    setActive(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open || event.altKey) return openList();
      setActive((index) => (event.key === 'ArrowDown' ? Math.min(index + 1, last) : Math.max(index - 1, 0)));
    } else if (event.key === 'Enter' && open) {
      // Choosing is not submitting the form.
      event.preventDefault();
      choose(shown[active]);
    } else if (event.key === 'Escape' && (open || query !== null)) {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };
  const optionId = (index: number) => `${listId}-option-${index}`;
  return { listId, optionId, query, open, active, matches, shown, openList, close, choose, type, onKeyDown };
}

type ZoneCombobox = ReturnType<typeof useZoneCombobox>;

/** The open list: a row per zone, and what to do when there are none or too many. */
function ZoneList({
  box,
  label,
  value,
  now,
}: {
  box: ZoneCombobox;
  label: string;
  value: string;
  now: Date;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const row = listRef.current?.querySelector<HTMLElement>(`[id="${box.optionId(box.active)}"]`);
    row?.scrollIntoView?.({ block: 'nearest' });
  });
  return (
    <>
      {/* The list keeps the focus in the input: a tap on a row would otherwise blur and close it first. */}
      <div
        ref={listRef}
        id={box.listId}
        role="listbox"
        aria-label={`${label} choices`}
        className="tz-picker__list"
        onMouseDown={(event) => event.preventDefault()}
      >
        {box.shown.map((option, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrow keys and Enter choose (combobox pattern)
          <div
            key={option.id}
            id={box.optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === box.active}
            className={`tz-picker__option${index === box.active ? ' tz-picker__option--active' : ''}`}
            onClick={() => box.choose(option)}
          >
            <ZoneRow option={option} now={now} chosen={option.id === value} />
          </div>
        ))}
      </div>
      {box.shown.length === 0 ? (
        <p className="tz-picker__note">No time zone matches “{box.query}”. Try a nearby big city.</p>
      ) : null}
      {box.matches.length > SHOWN ? (
        <p className="tz-picker__note">Keep typing to narrow {box.matches.length - SHOWN} more.</p>
      ) : null}
    </>
  );
}

type TimeZonePickerProps = {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  /** The chosen IANA zone, e.g. "America/Chicago". */
  value: string;
  onChange: (zone: string) => void;
  disabled?: boolean;
};

/**
 * A searchable list of time zones (WAI-ARIA combobox with a listbox popup): type a city, a region or a name
 * such as "Eastern"; each choice shows its city, region, offset and the time it is there now.
 */
export function TimeZonePicker({ label, hint, error, value, onChange, disabled }: TimeZonePickerProps) {
  const currentId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const box = useZoneCombobox(value, onChange);
  const now = useNow(box.open);
  const current = [timeZoneRegion(value), timeZoneOffset(value, now), `${timeZoneNow(value, now)} there now`];
  return (
    <Field label={label} hint={hint} error={error} describedBy={currentId} className="tz-picker">
      {(control) => (
        <div className="tz-picker__box">
          <div className="tz-picker__control">
            <input
              ref={inputRef}
              {...control}
              className="field__input tz-picker__input"
              type="text"
              role="combobox"
              aria-expanded={box.open}
              aria-controls={box.listId}
              aria-autocomplete="list"
              aria-activedescendant={box.open && box.shown[box.active] ? box.optionId(box.active) : undefined}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="Type a city, e.g. Chicago"
              disabled={disabled}
              value={box.query ?? timeZoneCity(value)}
              onFocus={(event) => event.currentTarget.select()}
              onClick={box.openList}
              onBlur={box.close}
              onKeyDown={box.onKeyDown}
              onChange={(event) => box.type(event.target.value)}
            />
            <button
              type="button"
              className="tz-picker__toggle"
              tabIndex={-1}
              aria-label={`Show ${label.toLowerCase()}s`}
              aria-expanded={box.open}
              aria-controls={box.listId}
              disabled={disabled}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                inputRef.current?.focus();
                if (box.open) box.close();
                else box.openList();
              }}
            >
              <span aria-hidden="true" className="tz-picker__caret" />
            </button>
          </div>
          {box.open ? <ZoneList box={box} label={label} value={value} now={now} /> : null}
          <p id={currentId} className="tz-picker__current">
            {current.filter(Boolean).join(' · ')}
          </p>
          <p className="visually-hidden" aria-live="polite">
            {box.open
              ? box.shown.length === 0
                ? 'No time zone matches'
                : `${box.matches.length} time zones`
              : ''}
          </p>
        </div>
      )}
    </Field>
  );
}
