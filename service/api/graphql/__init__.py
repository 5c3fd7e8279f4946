"""The GraphQL API of API.md: thin resolvers that map input to a command and the result back."""
