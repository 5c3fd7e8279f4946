// GraphiQL's start (service/api/graphql/console): the page's own script, a file rather than an
// inline <script>, so that the page's Content-Security-Policy allows scripts from this origin
// only (service/api/security_headers.py). The example operations and variables come from the
// page's JSON data block (not a script that runs).
const settings = JSON.parse(document.getElementById("papyrus-console").textContent);
const httpUrl = new URL(window.location.href);
httpUrl.search = "";
httpUrl.hash = "";
const wsUrl = new URL(httpUrl);
wsUrl.protocol = httpUrl.protocol === "https:" ? "wss:" : "ws:";
// queries and mutations over HTTP POST; subscriptions over graphql-transport-ws,
// the Headers pane (with its Authorization) being the connection_init payload
const fetcher = GraphiQL.createFetcher({
  url: httpUrl.toString(),
  subscriptionUrl: wsUrl.toString(),
  enableIncrementalDelivery: false,
});
const root = ReactDOM.createRoot(document.getElementById("graphiql"));
root.render(
  React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: settings.examples,
    variables: settings.variables,
    defaultEditorToolsVisibility: true,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
    inputValueDeprecation: true,
  }),
);
