"""The GraphQL API of docs/API.md: thin resolvers mapping input to a command and the result back."""
