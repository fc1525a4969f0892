import './brand-mark.css';

/** The product's logo and name. Decorative icon; the name is the text. */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  return (
    <span className={`brand-mark${compact ? ' brand-mark--compact' : ''}`}>
      <svg className="brand-mark__icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <path
          d="M16 20h32a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H30l-9 7v-7h-5a4 4 0 0 1-4-4V24a4 4 0 0 1 4-4z"
          fill="#fff"
        />
        <circle cx="24" cy="31" r="2.6" fill="currentColor" />
        <circle cx="32" cy="31" r="2.6" fill="currentColor" />
        <circle cx="40" cy="31" r="2.6" fill="currentColor" />
      </svg>
      <span className="brand-mark__name">Waitlist &amp; Text</span>
    </span>
  );
}
