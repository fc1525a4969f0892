import './loading-screen.css';

export function LoadingScreen({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="loading-screen__label">{label}…</span>
    </div>
  );
}
