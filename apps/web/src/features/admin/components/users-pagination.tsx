import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { knownPages, PAGE_SIZE_OPTIONS } from '../utils/users-view.ts';

type UsersPaginationProps = {
  /** The page the admin asked for. */
  page: number;
  pageSize: number;
  total: number;
  /** False when `total` is a lower bound: the count stopped there and more users match. */
  totalExact: boolean;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
};

/**
 * Previous/Next, "Page X of Y" and the page size. The buttons use aria-disabled rather than disabled,
 * so the keyboard stays on Next when it reaches the last page instead of falling back to the page.
 */
export function UsersPagination({
  page,
  pageSize,
  total,
  totalExact,
  onPage,
  onPageSize,
}: UsersPaginationProps) {
  const pages = knownPages(total, totalExact, pageSize);
  const hasPrevious = page > 1;
  const hasNext = page < pages;
  return (
    <nav className="admin-pagination" aria-label="Pages of users">
      <SelectField
        label="Rows per page"
        className="admin-pagination__size"
        value={String(pageSize)}
        onChange={(event) => onPageSize(Number(event.target.value))}
      >
        {PAGE_SIZE_OPTIONS.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </SelectField>
      <p className="admin-pagination__status">
        Page {Math.min(page, pages)} of {pages.toLocaleString('en-US')}
        {totalExact ? '' : '+'}
      </p>
      <div className="admin-pagination__buttons">
        <Button
          variant="secondary"
          aria-disabled={!hasPrevious}
          onClick={() => hasPrevious && onPage(page - 1)}
        >
          Previous
        </Button>
        <Button variant="secondary" aria-disabled={!hasNext} onClick={() => hasNext && onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
