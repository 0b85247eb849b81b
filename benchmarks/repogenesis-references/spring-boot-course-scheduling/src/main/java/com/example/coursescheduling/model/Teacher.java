package com.example.coursescheduling.model;

public class Teacher {
    public Long id;
    public String name;
    public Long departmentId;
}
