/** What each role may do, as a small table drawn from the one matrix (shared/team/roles.ts). */
import {
  PERMISSIONS,
  type Permission,
  ROLE_LABELS,
  ROLE_PERMISSIONS,
  ROLES,
} from "../../../../shared/team/roles.ts";

export function RoleMatrix() {
  const permissions = Object.keys(PERMISSIONS) as Permission[];
  return (
    <table className="tm-matrix" aria-label="What each role may do">
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Permission</span>
          </th>
          {ROLES.map((role) => (
            <th key={role} scope="col">
              {ROLE_LABELS[role]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {permissions.map((permission) => (
          <tr key={permission}>
            <th scope="row">{PERMISSIONS[permission]}</th>
            {ROLES.map((role) => {
              const allowed = ROLE_PERMISSIONS[role].includes(permission);
              return (
                <td key={role} className={allowed ? "tm-yes" : "tm-no"}>
                  <span aria-hidden="true">{allowed ? "✓" : "—"}</span>
                  <span className="visually-hidden">{allowed ? "Yes" : "No"}</span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
