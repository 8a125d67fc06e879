/** A screen's title with its Refresh button (operations.css lays the two out on one line). */
export function RefreshHeading({ title, onRefresh }: { title: string; onRefresh: () => void }) {
  return (
    <div className="ops-heading">
      <h1>{title}</h1>
      <button type="button" onClick={onRefresh}>
        Refresh
      </button>
    </div>
  );
}
