//! Listeners, WebSocket and HTTP transports, roles, subscriptions and shutdown.
