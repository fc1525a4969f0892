import './skeleton.css';

type SkeletonProps = {
  /** Lines of placeholder text. */
  lines?: number;
  /** What is loading, for screen readers ("Loading invoices"). */
  label: string;
  className?: string;
};

/** A grey placeholder in the shape of the content that is on its way. */
export function Skeleton({ lines = 3, label, className }: SkeletonProps) {
  return (
    <div className={`skeleton${className ? ` ${className}` : ''}`} role="status" aria-live="polite">
      <span className="visually-hidden">{label}…</span>
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines have no identity
        <span key={index} className="skeleton__line" aria-hidden="true" />
      ))}
    </div>
  );
}
