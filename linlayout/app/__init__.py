"""The top layer: applications that join the core and planning (``linlayout``) with the forms
(``converters``), such as the audit of a Triton kernel's layout conversions
(:mod:`linlayout.app.audit`).  Nothing below this package imports it."""
