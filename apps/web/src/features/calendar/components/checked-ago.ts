/** "just now", "2 min ago", "3 h ago", "2 days ago": when a calendar was last read. */
export function checkedAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return 'not checked yet';
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}
