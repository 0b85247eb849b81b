"""File Relay: file upload/download/management microservice."""
__version__ = "1.0.0"
