// /privacy: what the service keeps about a visit (nothing personal) and what its optional access log records.
import { ReflowTable } from './components.tsx';

/** The fields of one access-log line, as the embedded server writes them when LOG=1. */
const LOG_FIELDS: readonly (readonly [string, string])[] = [
  ['time', 'When the response finished, as an ISO 8601 UTC timestamp.'],
  ['method', 'The HTTP method, for example GET.'],
  ['path', 'The requested path, without the query string.'],
  ['status', 'The response status, for example 200 or 404.'],
  ['bytes', 'The size of the response body sent.'],
  ['encoding', 'The content encoding sent: br, gzip or identity.'],
  ['ms', 'How long the answer took, in milliseconds.'],
];

export function PrivacyPage() {
  return (
    <>
      <h1>Privacy</h1>
      <p class="lead">This service publishes public statistics. It does not collect personal data about the people who read them.</p>
      <section aria-labelledby="collect">
        <h2 id="collect">What the service collects</h2>
        <ul>
          <li>
            <strong>No cookies.</strong> No response sets a cookie, and no page stores anything in your browser.
          </li>
          <li>
            <strong>No tracking.</strong> No analytics, no tracking pixels, no third-party scripts, fonts or embeds. The pages run no JavaScript at all; their
            security policy lets them load only this site's own stylesheet.
          </li>
          <li>
            <strong>No accounts.</strong> Nothing needs a sign-in or an API key, so the service holds no user records.
          </li>
          <li>
            <strong>No referrer.</strong> The pages ask your browser not to send their address to the sites they link to (
            <code>Referrer-Policy: no-referrer</code>).
          </li>
        </ul>
      </section>
      <section aria-labelledby="log">
        <h2 id="log">The access log</h2>
        <p>
          The access log is off by default. An operator can turn it on with <code>LOG=1</code> (or <code>--log</code>); then the server writes one line per
          request with these fields and nothing else:
        </p>
        <ReflowTable>
          <table>
            <caption>Fields of one access-log line</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Content</th>
              </tr>
            </thead>
            <tbody>
              {LOG_FIELDS.map(([field, content]) => (
                <tr key={field}>
                  <th scope="row">
                    <code>{field}</code>
                  </th>
                  <td data-label="Content">{content}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ReflowTable>
        <p>
          The log holds <strong>no IP address, no user agent, no query string, no cookies and no other request headers</strong>. Where the log goes and how long
          it is kept is up to whoever runs the service. A static deployment behind a web server or CDN is subject to that server's own logging, which this
          project does not control.
        </p>
      </section>
    </>
  );
}
