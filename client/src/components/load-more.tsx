/** "N things shown" and a Load more button under a paged list (dashboard, screenings). */
import "./console.css";

type Props = {
  shown: number;
  /** Singular and plural, e.g. ["transaction", "transactions"]. */
  noun: [string, string];
  /** The paged query (useInfiniteQuery's result). */
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
};

export function LoadMore({ shown, noun, list }: Props) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  return (
    <p className="load-more">
      <span>
        {shown} {shown === 1 ? noun[0] : noun[1]} shown
      </span>
      {hasNextPage && (
        <button
          type="button"
          className="secondary"
          disabled={isFetchingNextPage}
          onClick={() => fetchNextPage()}
        >
          {isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
    </p>
  );
}
