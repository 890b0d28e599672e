def html_to_text(s):
    return s.derive('html_to_text') if hasattr(s, 'derive') else s
